// The error is reached after a few iterations.
extern void reach_error(void);
int main() {
  int i = 0;
  while (i < 10) { i += 3; }
  if (i == 12) reach_error();
  return 0;
}
