args: coldstart --model 8b --wire myhost --catalog catalogs/unmeasured_host_link.json
exit: 0
