// A program that defines its own `assume` keeps it: this one does not stop the execution,
// so n = 0 reaches the error (were `assume` read as the built-in, this would be safe).
extern int nondet();
void reach_error(void);
int assumed;
void assume(int c) { assumed = c; }
int main(void) {
  int n = nondet();
  assume(n > 5);
  if (n < 3) reach_error();
  return 0;
}
