// A `const` global with a constant initialiser sizes a local array: to C that is a
// variable-length array, here read as one of constant size, so that it may be passed by
// pointer (pointers into variable-length arrays are outside the subset).
extern void __VERIFIER_assert(int);
const int SIZE = 4;

int last(int a[], int n) { return a[n - 1]; }

int main() {
  int a[SIZE];
  a[0] = 1;
  a[SIZE - 1] = 2;
  __VERIFIER_assert(last(a, SIZE) == 2);
  return 0;
}
