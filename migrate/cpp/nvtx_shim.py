"""What NVTX's attributed ranges, domains, naming calls and NVTX3's C++ ranges become on ROCm: roctx (roctracer's
roctx.h) has only roctxMarkA, roctxRangePushA/Pop and roctxRangeStartA/Stop, with a message and nothing else, so
rule CPP025 puts this block after the roctx include of a file that uses the richer API. It keeps NVTX's own names
and layout, so the code around it compiles unchanged: an event's message reaches roctx, its colour, category and
payload are dropped (roctx has none), domains and names are accepted and ignored."""
from __future__ import annotations

MARKER = "HIPMIGRATE_NVTX_ON_ROCTX"
# the names the block declares: a file that uses one of them (and does not declare it itself) gets the block
NAMES = ("nvtxEventAttributes_t", "nvtxRangePushEx", "nvtxMarkEx", "nvtxRangeStartEx", "nvtxDomainHandle_t",
         "nvtxDomainCreateA", "nvtxDomainDestroy", "nvtxDomainRangePushEx", "nvtxDomainRangePop", "nvtxDomainMarkEx",
         "nvtxNameOsThreadA", "nvtxNameCategoryA", "nvtxNameCudaStreamA", "nvtxNameCudaDeviceA", "NVTX_VERSION",
         "NVTX_EVENT_ATTRIB_STRUCT_SIZE", "NVTX_COLOR_ARGB", "NVTX_MESSAGE_TYPE_ASCII", "nvtx3")


def block(newline: str = "\n") -> str:
    text = f"""#ifndef {MARKER}
#define {MARKER}
// roctx has no attributes, domains or names: hipmigrate wrote NVTX's in their place. The message reaches roctx;
// colour, category and payload are dropped; domains and names are ignored.
#include <cstdint>
#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))
#define NVTX_COLOR_UNKNOWN 0
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_UNKNOWN 0
#define NVTX_MESSAGE_TYPE_ASCII 1
#define NVTX_PAYLOAD_UNKNOWN 0
typedef struct nvtxEventAttributes_v2 {{
    uint16_t version; uint16_t size; uint32_t category; int32_t colorType; uint32_t color;
    int32_t payloadType; int32_t reserved0;
    union {{ uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; float fValue; }} payload;
    int32_t messageType;
    union {{ const char* ascii; const wchar_t* unicode; const void* registered; }} message;
}} nvtxEventAttributes_t;
typedef struct nvtxDomainRegistration_st* nvtxDomainHandle_t;
inline const char* hipmigrate_nvtx_message(const nvtxEventAttributes_t* a) {{
    return a != nullptr && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii != nullptr ? a->message.ascii : "";
}}
inline int nvtxRangePushEx(const nvtxEventAttributes_t* a) {{ return roctxRangePushA(hipmigrate_nvtx_message(a)); }}
inline void nvtxMarkEx(const nvtxEventAttributes_t* a) {{ roctxMarkA(hipmigrate_nvtx_message(a)); }}
inline roctx_range_id_t nvtxRangeStartEx(const nvtxEventAttributes_t* a) {{ return roctxRangeStartA(hipmigrate_nvtx_message(a)); }}
inline nvtxDomainHandle_t nvtxDomainCreateA(const char*) {{ return nullptr; }}
inline void nvtxDomainDestroy(nvtxDomainHandle_t) {{}}
inline int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) {{ return nvtxRangePushEx(a); }}
inline int nvtxDomainRangePop(nvtxDomainHandle_t) {{ return roctxRangePop(); }}
inline void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) {{ nvtxMarkEx(a); }}
inline void nvtxNameOsThreadA(uint32_t, const char*) {{}}
inline void nvtxNameCategoryA(uint32_t, const char*) {{}}
#ifdef __cplusplus
namespace nvtx3 {{
// NVTX3's scoped range: a roctx range for the object's lifetime
class scoped_range {{
  public:
    explicit scoped_range(const char* message) {{ roctxRangePushA(message); }}
    scoped_range(const scoped_range&) = delete;
    scoped_range& operator=(const scoped_range&) = delete;
    ~scoped_range() {{ roctxRangePop(); }}
}};
inline void mark(const char* message) {{ roctxMarkA(message); }}
}}  // namespace nvtx3
#endif
#endif  // {MARKER}"""
    return text.replace("\n", newline)
