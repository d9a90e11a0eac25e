#pragma pack(1)
struct pack_bits {
  char c;
  int x : 30;
};
#pragma pack()
