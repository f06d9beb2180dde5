// An irreducible loop: two labels, each entered from outside the cycle they form, so the loop
// has two heads. Either way in, x and y stay equal at `a` and differ by one at `b`.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0, y = 0;
  if (__VERIFIER_nondet_int()) goto b_entry;
a:
  if (x != y) reach_error();
  x++;
  if (x > 100) return 0;
b:
  if (x != y + 1) reach_error();
  y++;
  goto a;
b_entry:
  x = 1;
  goto b;
}
