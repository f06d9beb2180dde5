// expect: 4:7: unsupported: pointers
extern void reach_error(void);
int main() {
  int *p;
  return 0;
}
