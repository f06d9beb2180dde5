// Forty `if`s in a row after a nondet value: the states of both branches are merged at every
// join, and the nondet event recorded before the split must be kept once, not once per branch
// (before, every join doubled it: 2^40 copies, out of memory).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 0) y++;
  if (x > 10) y++;
  if (x > 20) y++;
  if (x > 30) y++;
  if (x > 40) y++;
  if (x > 50) y++;
  if (x > 60) y++;
  if (x > 70) y++;
  if (x > 80) y++;
  if (x > 90) y++;
  if (x > 100) y++;
  if (x > 110) y++;
  if (x > 120) y++;
  if (x > 130) y++;
  if (x > 140) y++;
  if (x > 150) y++;
  if (x > 160) y++;
  if (x > 170) y++;
  if (x > 180) y++;
  if (x > 190) y++;
  if (x > 200) y++;
  if (x > 210) y++;
  if (x > 220) y++;
  if (x > 230) y++;
  if (x > 240) y++;
  if (x > 250) y++;
  if (x > 260) y++;
  if (x > 270) y++;
  if (x > 280) y++;
  if (x > 290) y++;
  if (x > 300) y++;
  if (x > 310) y++;
  if (x > 320) y++;
  if (x > 330) y++;
  if (x > 340) y++;
  if (x > 350) y++;
  if (x > 360) y++;
  if (x > 370) y++;
  if (x > 380) y++;
  if (x > 390) y++;
  if (y > 40 || (x <= 0 && y != 0)) reach_error();
  return 0;
}
