"""A fight on a second screen: a read-only web page of an encounter, reached by a secret link the GM shares."""
