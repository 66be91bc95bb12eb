"""Test helpers shared across suites: real local servers, never mocks of our own code."""
