#pragma pack(push, 1)
struct packed_by_pragma {
  char c;
  struct {
    int x;
  } s;
};
#pragma pack(pop)
