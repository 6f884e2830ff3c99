// The DemoAccessibility module; see DESIGN.md, "Targets".
