// Internal to simd/*.cc: calls a kernel through its Highway dispatch table at the index of the
// calling thread's selection (dispatch.h). Highway's HWY_DYNAMIC_DISPATCH asks libhwy for the chosen target
// on every call (an out-of-line call); for kernels of a few nanoseconds that is a large share.
#pragma once

#include "simd/dispatch.h"

// The calling thread's selection's entry of FUNC's table.
#define VBLITZ_DISPATCH(FUNC) (*HWY_DISPATCH_TABLE(FUNC)[::vblitz::simd::current().index()])
