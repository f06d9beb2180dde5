// expect: 5:7: unsupported: arrays used as values (passed, assigned or compared whole)
extern void reach_error(void);
int main() {
  int a[3], b[3];
  if (a == b) reach_error();
  return 0;
}
