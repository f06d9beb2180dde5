// Nesting below the bound works end to end: 512 unary minus signs (an even number: x is
// unchanged), 256 nested blocks and 256 nested ifs.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#define N4 - - - -
#define N16 N4 N4 N4 N4
#define N64 N16 N16 N16 N16
#define N256 N64 N64 N64 N64
#define O4 { { { {
#define O16 O4 O4 O4 O4
#define O64 O16 O16 O16 O16
#define C4 } } } }
#define C16 C4 C4 C4 C4
#define C64 C16 C16 C16 C16
#define I4 if (x > 0) if (x > 0) if (x > 0) if (x > 0)
#define I16 I4 I4 I4 I4
#define I64 I16 I16 I16 I16
int main() {
  int x = __VERIFIER_nondet_int();
  int y = N256 N256 x;
  if (y != x) reach_error();
  O64 O64 O64 O64 y = 1; C64 C64 C64 C64
  I64 I64 I64 I64 y = 2;
  if (y == 2 && x <= 0) reach_error();
  return 0;
}
