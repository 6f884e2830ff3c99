// Tests of ScreenRaster.
