// expect: 11:14: statements nested too deeply (more than 1000 levels)
// 1024 nested blocks.
#define O4 { { { {
#define O16 O4 O4 O4 O4
#define O64 O16 O16 O16 O16
#define O256 O64 O64 O64 O64
#define C4 } } } }
#define C16 C4 C4 C4 C4
#define C64 C16 C16 C16 C16
#define C256 C64 C64 C64 C64
int main() { O256 O256 O256 O256 return 0; C256 C256 C256 C256 }
