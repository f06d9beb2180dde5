// The irreducible loop of safe/goto-irreducible.c entered at `b` without the adjustment.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0, y = 0;
  if (__VERIFIER_nondet_int()) goto b;
a:
  x++;
  if (x > 100) return 0;
b:
  if (x != y + 1) reach_error();
  y++;
  goto a;
}
