args: tp --model 70b --catalog <scratch>/unreadable.json
exit: 2
as-nobody: yes
setup-unreadable: unreadable.json
