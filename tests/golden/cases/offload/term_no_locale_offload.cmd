env: --unset=LC_ALL --unset=LANG
args: offload --model 70b --gpu h100 --host-link pcie5
exit: 0
