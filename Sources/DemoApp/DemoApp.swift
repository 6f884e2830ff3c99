// The DemoApp module; see DESIGN.md, "Targets".
