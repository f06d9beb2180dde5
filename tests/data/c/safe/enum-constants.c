extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
// Enumerators are int constants: implicit values count on from the previous one.
typedef enum { RED, BLACK = 5, GREEN, BLUE = GREEN * 2 + (1 << 2) } Colour;
enum flags { NONE, ONE = -1, TWO };
struct node { Colour c; enum flags f; };
int main(void) {
  struct node n;
  n.c = __VERIFIER_nondet_int() ? RED : BLUE;
  n.f = TWO;
  if (BLACK != 5 || GREEN != 6 || BLUE != 16 || NONE != 0 || TWO != 0)
    reach_error();
  switch (n.c) {
  case RED:
  case BLUE:
    break;
  default:
    reach_error();
  }
  enum { LOCAL = 3 } k = LOCAL;
  if (k + n.f != 3)
    reach_error();
  return 0;
}
