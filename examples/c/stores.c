// A program for `examples/program_analysis.rs`: a local that may be read before it is
// assigned, and stores whose values are never read.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int sum;
  if (n > 0)
    sum = 0;
  int unused = n * 2;
  for (int i = 0; i < n; i++)
    sum = sum + i;
  sum = -1;
  if (n < 0 && sum > 0) reach_error();
  sum = 5;
  return 0;
}
