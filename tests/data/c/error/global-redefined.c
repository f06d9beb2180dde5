// expect: 4:5: redefinition of `g`
// A tentative definition may be repeated, but only one may have an initialiser.
int g = 0;
int g = 1;
int main() { return g; }
