// The ScreenRaster module; see DESIGN.md, "Targets".
