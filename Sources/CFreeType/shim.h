#include <ft2build.h>
#include FT_FREETYPE_H

// FT_LOAD_TARGET_LIGHT is a function-like macro Swift does not import.
static const FT_Int32 FS_FT_LOAD_TARGET_LIGHT = FT_LOAD_TARGET_LIGHT;
