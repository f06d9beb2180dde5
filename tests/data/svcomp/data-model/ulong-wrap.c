// expect: ILP32 unsafe, LP64 safe
// `unsigned long` wraps at 2^32 under ILP32 only (unsigned arithmetic never is undefined).
extern void reach_error(void);
int main() {
  unsigned long x = 4294967295UL;
  x = x + 1;
  if (x == 0) reach_error();
  return 0;
}
