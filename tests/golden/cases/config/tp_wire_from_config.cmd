env: ICX_CONFIG=configs/defaults.toml
args: tp --model 70b --tokens 4096
exit: 0
