// Tests of DemoUI.
