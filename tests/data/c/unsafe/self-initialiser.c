// C11 6.2.1p7: the inner x is in scope in its own initialiser, which reads its indeterminate
// value (any int), not the outer x = 5: so x may differ from 6 (it was wrongly "safe").
extern void reach_error(void);
int main(void) {
  int x = 5;
  {
    int x = x + 1;
    if (x != 6) reach_error();
  }
  return 0;
}
