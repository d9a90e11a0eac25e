#pragma pack(2)
struct pack_zero {
  char c;
  long long x;
  int : 0;
  char d;
};
#pragma pack()
