// An unsigned counter stepping by 2 stays even up to a bound unrolling never reaches: the
// proof needs the congruence x % 2 == 0, which no linear bound expresses and sampled states
// suggest.
extern void reach_error(void);
int main(void) {
  unsigned int x = 4;
  while (x < 0x0ffffff0) {
    x += 2;
  }
  if (x % 2) reach_error();
  return 0;
}
