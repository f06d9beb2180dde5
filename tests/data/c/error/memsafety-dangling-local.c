// expect: 9:7: unsupported: the address of a local of a function other than `main` under a memory property
// property: valid-memsafety
// `x` dies when foo returns; main then reads it through `g`: an invalid dereference. Locals
// whose address is taken live in static storage, which would make this read valid (it was
// answered safe), so under a memory property such an address is refused.
int *g;
void foo(void) {
  int x = 1;
  g = &x;
}
int main(void) {
  foo();
  return *g;
}
