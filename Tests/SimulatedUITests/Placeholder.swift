// Tests of SimulatedUI.
