/* SPDX-License-Identifier: MIT */
/*
 * A device's properties, from CUPTI's device record and the driver, written
 * once per device (commroof_device events, metadata.devices).
 */
#include "tracer.h"

typedef CUresult (*fn_cuDeviceGet)(CUdevice *, int);
typedef CUresult (*fn_cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*fn_cuDeviceGetPCIBusId)(char *, int, CUdevice);
typedef CUresult (*fn_cuDeviceGetName)(char *, int, CUdevice);
typedef CUresult (*fn_cuDeviceTotalMem)(size_t *, CUdevice);
typedef CUresult (*fn_cuDeviceGetUuid)(CUuuid *, CUdevice);

static void sb_uuid(sb_t *s, const CUuuid *id)
{
    const unsigned char *u = (const unsigned char *)id->bytes;
    sb_printf(s,
              ",\"uuid\":\"GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%"
              "02x\"",
              u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
              u[13], u[14], u[15]);
}

/* dl_iterate_phdr callback: copies the path of a loaded libcuda into data. */
static int find_libcuda(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *n = info->dlpi_name;
    const char *base = n ? strrchr(n, '/') : NULL;
    base = base ? base + 1 : n;
    if (base && strncmp(base, "libcuda.so", 10) == 0) {
        snprintf((char *)data, 4096, "%s", n);
        return 1;
    }
    return 0;
}

/* What the driver says about one device; what CUPTI's device record lacks
 * (PCI ids, memory clock and bus width) comes only from here. */
struct drv_props {
    bool ok; /* the driver answered for this device */
    char name[128];
    bool has_uuid;
    CUuuid uuid;
    int cc_major, cc_minor, sm_count, clock_khz, l2_bytes; /* 0 = not given */
    int mem_clock_khz, mem_bus_bits, pci_device_id;
    size_t mem_bytes;
    char pci[32]; /* "0000:00:06.0", "" = not given */
};

/* The loaded libcuda (a NOLOAD reference the caller dlclose()s), or NULL when
 * none is loaded. The runtime dlopen()s libcuda privately (RTLD_LOCAL), so
 * RTLD_DEFAULT does not see it (seen on the H200, 2026-11-29). Never loads
 * it: a process that has not loaded CUDA must not get it from us. */
static void *loaded_libcuda(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda) { /* loaded under another name or path: find it among the loaded objects */
        char path[4096] = "";
        dl_iterate_phdr(find_libcuda, path);
        if (path[0])
            cuda = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    }
    return cuda;
}

/* Asks the driver (cuda, from loaded_libcuda) about device ordinal dev.
 * Returns the cuDeviceGet result; *p is filled on CUDA_SUCCESS. Never calls
 * cuInit. Reads only device attributes: no context is made or touched. */
static CUresult drv_query(void *cuda, int dev, struct drv_props *p)
{
    fn_cuDeviceGet get;
    fn_cuDeviceGetAttribute attr;
    fn_cuDeviceGetPCIBusId bus;
    fn_cuDeviceGetName getname;
    fn_cuDeviceTotalMem totalmem;
    fn_cuDeviceGetUuid getuuid;
    LOAD_SYM(get, cuda, "cuDeviceGet");
    LOAD_SYM(attr, cuda, "cuDeviceGetAttribute");
    LOAD_SYM(bus, cuda, "cuDeviceGetPCIBusId");
    LOAD_SYM(getname, cuda, "cuDeviceGetName");
    LOAD_SYM(totalmem, cuda, "cuDeviceTotalMem_v2");
    LOAD_SYM(getuuid, cuda, "cuDeviceGetUuid_v2");
    memset(p, 0, sizeof *p);
    CUdevice cu = 0;
    CUresult r = get ? get(&cu, dev) : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS)
        return r;
    p->ok = true;
    if (getname && getname(p->name, (int)sizeof p->name, cu) != CUDA_SUCCESS)
        p->name[0] = '\0';
    p->has_uuid = getuuid && getuuid(&p->uuid, cu) == CUDA_SUCCESS;
    static const struct {
        CUdevice_attribute a;
        size_t off;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(struct drv_props, cc_major)},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(struct drv_props, cc_minor)},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(struct drv_props, sm_count)},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, offsetof(struct drv_props, clock_khz)},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, offsetof(struct drv_props, l2_bytes)},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, offsetof(struct drv_props, mem_clock_khz)},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, offsetof(struct drv_props, mem_bus_bits)},
        {CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, offsetof(struct drv_props, pci_device_id)},
    };
    for (size_t i = 0; attr && i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = 0;
        if (attr(&v, attrs[i].a, cu) == CUDA_SUCCESS)
            memcpy((char *)p + attrs[i].off, &v, sizeof v);
    }
    if (totalmem && totalmem(&p->mem_bytes, cu) != CUDA_SUCCESS)
        p->mem_bytes = 0;
    if (bus && bus(p->pci, (int)sizeof p->pci, cu) != CUDA_SUCCESS)
        p->pci[0] = '\0';
    return CUDA_SUCCESS;
}

/* Takes the driver's view of every device once CUDA is initialised; the
 * flush thread calls it until it returns true. Why not only when CUPTI's
 * device record comes: a program shorter than the flush period gets its
 * records at exit, when the runtime may have shut the driver down already
 * (cuDeviceGet failed there: h200-1/cuda_demo.json, a 0.46 s program, had no
 * PCI ids). cuDeviceGetCount does not initialise CUDA: before the program's
 * cuInit it fails and we ask again later. */
bool drv_snapshot(void)
{
    if (__atomic_load_n(&g.drv_state, __ATOMIC_ACQUIRE) != 0)
        return true;
    void *cuda = loaded_libcuda();
    if (!cuda)
        return false;
    CUresult (*count)(int *);
    LOAD_SYM(count, cuda, "cuDeviceGetCount");
    int n = 0;
    CUresult r = count ? count(&n) : CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_ERROR_NOT_INITIALIZED) {
        dlclose(cuda);
        return false;
    }
    struct drv_props *props = calloc(MAX_DEV, sizeof *props);
    if (r == CUDA_SUCCESS && props)
        for (int d = 0; d < n && d < MAX_DEV; d++)
            drv_query(cuda, d, &props[d]);
    dlclose(cuda); /* drops only the reference NOLOAD took */
    pthread_mutex_lock(&g.mu);
    if (!g.drv && props && r == CUDA_SUCCESS) {
        g.drv = props;
        props = NULL;
    }
    __atomic_store_n(&g.drv_state, g.drv ? 1 : 2, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g.mu);
    free(props);
    return true;
}

/* The driver's properties of dev (g.mu held): the snapshot when it has
 * them, else asked now (cuInit retried only when the driver says it is not
 * initialised: records arrive, so the program is initialising CUDA). */
static bool drv_props_of(int dev, struct drv_props *p)
{
    if (g.drv && g.drv[dev].ok) {
        *p = g.drv[dev];
        return true;
    }
    void *cuda = loaded_libcuda();
    void *h = cuda ? cuda : RTLD_DEFAULT;
    CUresult r = drv_query(h, dev, p);
    if (r == CUDA_ERROR_NOT_INITIALIZED) {
        CUresult (*init)(unsigned);
        LOAD_SYM(init, h, "cuInit");
        if (init && init(0) == CUDA_SUCCESS)
            r = drv_query(h, dev, p);
    }
    if (cuda)
        dlclose(cuda);
    if (r != CUDA_SUCCESS)
        note_error("device %d: no PCI ids or memory clock (the driver did not answer: "
                   "cuDeviceGet returned %d)",
                   dev, (int)r);
    return r == CUDA_SUCCESS;
}

/* The device's properties, written once per device as a commroof_device
 * event and kept for metadata.devices. From CUPTI's device record when it
 * came (d != NULL), otherwise, and for what that record lacks (PCI ids,
 * memory clock and bus), from the driver. Fields neither source gives stay
 * absent, never guessed. Called with g.mu held. */
void describe_device(sb_t *s, int dev, const CUpti_ActivityDevice5 *d)
{
    if (dev < 0 || dev >= MAX_DEV || g.dev_known[dev])
        return;
    g.dev_known[dev] = true;
    struct drv_props p;
    bool drv = drv_props_of(dev, &p);
    sb_t j = {0};
    sb_printf(&j, "{\"device\":%d", dev);
    char name[128] = "";
    if (d && d->name)
        snprintf(name, sizeof name, "%s", d->name);
    else if (drv)
        snprintf(name, sizeof name, "%s", p.name);
    snprintf(g.dev_name[dev], sizeof g.dev_name[dev], "%s", name);
    if (name[0]) {
        sb_puts(&j, ",\"name\":");
        sb_str(&j, name);
    }
    if (d)
        sb_uuid(&j, &d->uuid);
    else if (drv && p.has_uuid)
        sb_uuid(&j, &p.uuid);
    if (d) {
        sb_printf(&j,
                  ",\"cc_major\":%u,\"cc_minor\":%u,\"sm_count\":%u,\"clock_khz\":%u,"
                  "\"mem_bytes\":%" PRIu64 ",\"l2_bytes\":%u,\"copy_engines\":%u,"
                  "\"max_smem_per_sm_bytes\":%u,\"max_regs_per_sm\":%u",
                  d->computeCapabilityMajor, d->computeCapabilityMinor, d->numMultiprocessors,
                  d->coreClockRate, d->globalMemorySize, d->l2CacheSize, d->numMemcpyEngines,
                  d->maxSharedMemoryPerMultiprocessor, d->maxRegistersPerMultiprocessor);
    } else if (drv) {
        if (p.sm_count > 0) /* cc 0.0 is no device: with no SMs, leave the pair out */
            sb_printf(&j, ",\"cc_major\":%d,\"cc_minor\":%d,\"sm_count\":%d", p.cc_major,
                      p.cc_minor, p.sm_count);
        if (p.clock_khz > 0)
            sb_printf(&j, ",\"clock_khz\":%d", p.clock_khz);
        if (p.mem_bytes > 0)
            sb_printf(&j, ",\"mem_bytes\":%zu", p.mem_bytes);
        if (p.l2_bytes > 0)
            sb_printf(&j, ",\"l2_bytes\":%d", p.l2_bytes);
    }
    if (drv && p.mem_clock_khz > 0)
        sb_printf(&j, ",\"mem_clock_khz\":%d", p.mem_clock_khz);
    if (drv && p.mem_bus_bits > 0)
        sb_printf(&j, ",\"mem_bus_bits\":%d", p.mem_bus_bits);
    if (drv && p.pci_device_id != 0)
        sb_printf(&j, ",\"pci_device_id\":\"0x%08x\"", (unsigned)p.pci_device_id);
    if (drv && p.pci[0]) {
        sb_puts(&j, ",\"pci\":");
        sb_str(&j, p.pci);
    }
    sb_puts(&j, ",\"source\":");
    sb_str(&j, d ? (drv ? "cupti+driver" : "cupti") : "driver");
    sb_puts(&j, "}");
    if (j.oom) {
        free(j.p);
        return;
    }
    g.dev_json[dev] = j.p;
    sb_printf(s,
              "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":0,\"name\":\"commroof_device\",\"args\":",
              host_pid_of(dev));
    sb_puts(s, j.p);
    sb_puts(s, "},\n");
}
