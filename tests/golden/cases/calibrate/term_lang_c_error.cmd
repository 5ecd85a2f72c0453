env: --unset=LC_ALL LANG=C
args: calibrate ../../LICENSE --wire nvlink3
exit: 2
