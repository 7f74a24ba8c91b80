/*
 * version.h - the one weft version string, printed by every CLI's --version
 * and recorded in every report (estimate/ outputs, weft-energy/weft-area
 * JSON) so a number can be traced back to the code that produced it.
 */
#ifndef WEFT_VERSION_H
#define WEFT_VERSION_H

#define WEFT_VERSION "0.1.0"

#endif
