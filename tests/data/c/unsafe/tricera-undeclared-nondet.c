// An undeclared `__nondet()` (C89's implicit `int __nondet()`, as older tasks call TriCera's
// convention) is any `int`.
void reach_error(void);
int main(void) {
  int n = __nondet();
  if (n == 42)
    reach_error();
  return 0;
}
