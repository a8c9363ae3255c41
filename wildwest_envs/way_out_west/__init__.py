"""Way Out West (Martin Wallace, Warfrog 2000): see ``wildwest_envs.way_out_west.env``."""
