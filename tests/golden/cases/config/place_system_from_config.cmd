args: --config configs/defaults.toml place --model 70b --phase decode --batch 32
exit: 0
