"""`hipmigrate doctor`: can this machine build migrated code for AMD GPUs, and run it on one?

- probe.py gathers the machine's facts into a `Probe` (the only module that runs tools or reads /dev);
- parsers.py reads what rocminfo, rocm-smi, amd-smi, hipconfig and torch print (pure functions);
- checks.py judges a Probe: one small function per check, each returning typed `Check`s;
- model.py holds the result types.
"""
from migrate.doctor.checks import CHECKS, run
from migrate.doctor.model import Area, Check, DoctorReport, Gpu, Status, Summary
from migrate.doctor.probe import Node, Output, Probe, User

__all__ = ["CHECKS", "run", "Area", "Check", "DoctorReport", "Gpu", "Status", "Summary", "Node", "Output", "Probe",
           "User"]
