// expect: 5:11: macro `MAX` takes 2 arguments, 3 given
// A function-like macro used with the wrong number of arguments.
#define MAX(a, b) ((a) > (b) ? (a) : (b))
int main() {
  int m = MAX(1, (2, 3), 4);
  return m;
}
