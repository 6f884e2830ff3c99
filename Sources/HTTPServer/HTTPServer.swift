// The HTTPServer module; see DESIGN.md, "Targets".
