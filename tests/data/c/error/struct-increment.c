// expect: 6:3: unsupported: arithmetic on structs
struct s { int a, b; };
int main(void) {
  struct s x;
  x.a = 0;
  x++;
  return x.a;
}
