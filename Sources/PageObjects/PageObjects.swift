// The PageObjects module; see DESIGN.md, "Targets".
