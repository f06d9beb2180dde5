// The witness names struct members (`p.lo`), which the validator reads as the loop head's
// variables.
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);
struct pair { int lo; int hi; };
int main(void) {
  struct pair p;
  p.lo = 0;
  p.hi = 0;
  while (__VERIFIER_nondet_int() && p.hi < 100) {
    p.lo++;
    p.hi += 2;
  }
  if (p.hi != 2 * p.lo) reach_error();
  return 0;
}
