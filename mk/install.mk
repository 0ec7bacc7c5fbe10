# mk/install.mk - the shared library, its pkg-config file and the install
# (included by the Makefile after the other fragments: LIB_OBJ, DRIVER_OBJ,
# API_OBJ, TB_RTL_OBJ, RTL_LIB, VLT_RT, HOST_LIBS).
#
#   build/libvtasim.so      everything libvtasim.a holds, position-independent
#                           (every object is built -fPIC), soname
#                           libvtasim.so.MAJOR; exports only the public API:
#                           include/vtasim.h and VTA's driver API (vta/driver.h),
#                           the rest hidden (-fvisibility=hidden, and the
#                           version script for the Verilated C++)
#   make install            PREFIX (/usr/local), DESTDIR (staging), LIBDIR,
#                           INCLUDEDIR, PYTHONDIR: the CLI, vtasim-sc, both
#                           libraries, the headers (INCLUDEDIR/vtasim/), vtasim.pc
#                           and the Python package
#   make uninstall          removes exactly what install wrote
#
# The version (and so the soname) comes from include/vtasim.h, its one source.

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
BINDIR     ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
PYTHONDIR  ?= $(LIBDIR)/python3/dist-packages
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

VTASIM_VER   := $(shell sed -n 's/^\#define VTASIM_VERSION_STRING "\(.*\)"/\1/p' include/vtasim.h)
VTASIM_MAJOR := $(firstword $(subst ., ,$(VTASIM_VER)))
SO_NAME      := libvtasim.so.$(VTASIM_MAJOR)
SO_FILE      := $(BUILD)/libvtasim.so.$(VTASIM_VER)
SO_LINK      := $(BUILD)/libvtasim.so
SO_MAP       := $(BUILD)/libvtasim.map
PC_FILE      := $(BUILD)/vtasim.pc

.PHONY: install uninstall shared
all: shared
shared: $(SO_LINK) $(PC_FILE)

# The exported names: the public header's (vtasim_*) and the driver API's
# (VTA*); everything else local, the Verilated core's C++ included.
$(SO_MAP): mk/install.mk
	@mkdir -p $(dir $@)
	@printf '{\n  global:\n    vtasim_*;\n    VTA*;\n  local:\n    *;\n};\n' > $@

# The Verilated core's objects, extracted from Verilator's archive.
$(SO_FILE): $(LIB_OBJ) $(DRIVER_OBJ) $(API_OBJ) $(TB_RTL_OBJ) $(RTL_LIB) $(VLT_RT) $(SO_MAP)
	@rm -rf $(BUILD)/so-objs && mkdir -p $(BUILD)/so-objs
	cd $(BUILD)/so-objs && ar x $(abspath $(RTL_LIB))
	$(CXX) -shared -o $@ -Wl,-soname,$(SO_NAME) -Wl,--version-script=$(SO_MAP) -Wl,--no-undefined \
	  $(LDFLAGS) $(LIB_OBJ) $(DRIVER_OBJ) $(API_OBJ) $(TB_RTL_OBJ) $(VLT_RT) $(BUILD)/so-objs/*.o \
	  $(HOST_LIBS)
	@rm -rf $(BUILD)/so-objs
$(SO_LINK): $(SO_FILE)
	ln -sf $(notdir $(SO_FILE)) $(BUILD)/$(SO_NAME)
	ln -sf $(notdir $(SO_FILE)) $@

# pkg-config: the shared library by default; `pkg-config --static` adds
# what the archive needs.  includedir is INCLUDEDIR/vtasim, so that
# <vtasim.h> and <vta/driver.h> (as TVM's runtime includes it) resolve.
# The file is written again by `make install` for that install's PREFIX,
# LIBDIR and INCLUDEDIR (the build tree's copy has the defaults).
define write_pc
	@{ echo 'prefix=$(PREFIX)'; \
	   echo 'libdir=$(LIBDIR)'; \
	   echo 'includedir=$(INCLUDEDIR)/vtasim'; \
	   echo ''; \
	   echo 'Name: vtasim'; \
	   echo 'Description: simulator of VTA, the TVM deep-learning accelerator (C API and VTA driver API)'; \
	   echo 'Version: $(VTASIM_VER)'; \
	   echo 'Cflags: -I$${includedir}'; \
	   echo 'Libs: -L$${libdir} -lvtasim'; \
	   echo 'Libs.private: $(HOST_LIBS)'; } > $(1)
endef
$(PC_FILE): mk/install.mk include/vtasim.h
	@mkdir -p $(dir $@)
	$(call write_pc,$@)

PY_SRC := $(wildcard python/vtasim/*.py)
# Where the package finds the library: relative to itself, so that a
# DESTDIR staging tree works as well as the final one.
PY_LIBREL = $(shell python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
              '$(LIBDIR)' '$(PYTHONDIR)/vtasim')

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(INCLUDEDIR)/vtasim/vta $(DESTDIR)$(PYTHONDIR)/vtasim
	install -m 755 $(BUILD)/vtasim $(BUILD)/vtasim-sc $(DESTDIR)$(BINDIR)/
	install -m 644 $(BUILD)/libvtasim.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SO_FILE) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SO_FILE)) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(notdir $(SO_FILE)) $(DESTDIR)$(LIBDIR)/libvtasim.so
	install -m 644 include/vtasim.h $(DESTDIR)$(INCLUDEDIR)/vtasim/
	install -m 644 driver/vta/driver.h $(DESTDIR)$(INCLUDEDIR)/vtasim/vta/
	$(call write_pc,$(DESTDIR)$(PKGCONFIGDIR)/vtasim.pc)
	install -m 644 $(PY_SRC) $(DESTDIR)$(PYTHONDIR)/vtasim/
	printf '# written by make install: the library, relative to this package\nLIBREL = "%s/%s"\n' \
	  '$(PY_LIBREL)' '$(SO_NAME)' > $(DESTDIR)$(PYTHONDIR)/vtasim/_installed.py

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vtasim $(DESTDIR)$(BINDIR)/vtasim-sc
	rm -f $(DESTDIR)$(LIBDIR)/libvtasim.a $(DESTDIR)$(LIBDIR)/$(notdir $(SO_FILE)) \
	  $(DESTDIR)$(LIBDIR)/$(SO_NAME) $(DESTDIR)$(LIBDIR)/libvtasim.so
	rm -f $(DESTDIR)$(INCLUDEDIR)/vtasim/vtasim.h $(DESTDIR)$(INCLUDEDIR)/vtasim/vta/driver.h
	-rmdir $(DESTDIR)$(INCLUDEDIR)/vtasim/vta $(DESTDIR)$(INCLUDEDIR)/vtasim 2>/dev/null
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/vtasim.pc
	rm -rf $(DESTDIR)$(PYTHONDIR)/vtasim
