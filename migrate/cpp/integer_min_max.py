"""CUDA's integer min/max device functions HIP does not declare, and the type each compares in: HIP's device
`template <class T> T min(T, T)` (and `max`) with both arguments cast to that type does the same. Rule CPP047 writes them; CPP006
leaves them to it."""
TYPES = {"umin": ("min", "unsigned int"), "umax": ("max", "unsigned int"), "llmin": ("min", "long long"),
         "llmax": ("max", "long long"), "ullmin": ("min", "unsigned long long"),
         "ullmax": ("max", "unsigned long long")}
