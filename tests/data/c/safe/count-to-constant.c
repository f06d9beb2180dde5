// A counter runs to a bound far beyond what sampling or unrolling reaches: the proof needs
// i <= 1000000, a program constant the samples never show.
extern void reach_error(void);
int main(void) {
  int i;
  for (i = 0; i < 1000000; i++)
    ;
  if (i != 1000000) reach_error();
  return 0;
}
