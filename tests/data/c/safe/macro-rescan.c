// Macros as C expands them: a macro is not expanded again inside its own expansion (`x` below
// is `(x + 1)` with the inner `x` the variable, and `A`/`B` name each other), a definition
// applies from its line on, `#undef` ends it, and `\` continues a definition on the next line.
extern void reach_error(void);
int x = 1;
int A = 5;
int B = 6;
#define x (x + 1)
#define A B
#define B A
#define N 10
int check_n_first(void) { return N; }
#undef N
#define N \
  20 + \
  1
int main() {
  if (x != 2) reach_error();
  if (A != 5 || B != 6) reach_error();
  if (check_n_first() != 10 || N != 21) reach_error();
  return 0;
}
