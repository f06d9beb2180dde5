// expect: 3:15: enumerator `A` defined twice
enum first { A, B };
enum second { A };
int main(void) { return B; }
