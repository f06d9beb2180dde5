// Nondet values of several types, used in order; an uninitialised local is any value.
extern char __VERIFIER_nondet_char(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
int main() {
  char c = __VERIFIER_nondet_char();
  unsigned short s = __VERIFIER_nondet_ushort();
  _Bool b = __VERIFIER_nondet_bool();
  int u;
  if (c == -3 && s == 65535 && b && u == 7) reach_error();
  return 0;
}
