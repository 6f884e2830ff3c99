// Tests of PageObjects.
