// expect: 11:5: expressions nested too deeply (more than 1000 levels)
// 1024 unary minus signs: the tree of a deeper expression is never built (every later pass
// recurses over it; a million levels overflowed the stack).
#define N4 - - - -
#define N16 N4 N4 N4 N4
#define N64 N16 N16 N16 N16
#define N256 N64 N64 N64 N64
int main() {
  int x = 1;
  x =
    N256 N256 N256 N256 x;
  return x;
}
