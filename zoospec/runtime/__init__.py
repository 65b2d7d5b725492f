"""A loaded game at work: the `Game` facade (rules, actions, states, both back ends), concrete and
symbolic states, the agreement between the back ends, and Hypothesis strategies for states."""
