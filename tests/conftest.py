import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# No test measures time: Hypothesis's per-example deadline would make a property fail on a
# busy machine (CI shares its cores), so it is off for every property in the suite.
settings.register_profile("calhamer", deadline=None)
settings.load_profile("calhamer")
