#!/usr/bin/env perl
# An OAI-PMH data provider no one here wrote: Dancer::Plugin::Catmandu::OAI
# (Debian libdancer-plugin-catmandu-oai-perl) over the records of the JSON
# file $OAI_RECORDS, in oai_dc and epicur (the templates beside this file),
# with sets, deleted records and resumption tokens ($OAI_LIMIT records a
# page), on 127.0.0.1:$OAI_PORT.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Dancer;
use Catmandu;
use Dancer::Plugin::Catmandu::OAI;

Catmandu->config->{store}{oai} = { package => '+UrikitTestStore', options => { file => $ENV{OAI_RECORDS} } };
set port => $ENV{OAI_PORT}, server => '127.0.0.1', logger => 'null', startup_info => 0, charset => 'UTF-8';
set plugins => { 'Catmandu::OAI' => {
    store => 'oai', bag => 'data', datestamp_field => 'datestamp',
    repositoryName => 'Catmandu test repository', uri_base => "http://127.0.0.1:$ENV{OAI_PORT}/oai",
    adminEmail => 'admin@repo.example', earliestDatestamp => '2020-01-01T00:00:00Z', deletedRecord => 'persistent',
    repositoryIdentifier => 'repo.example', limit => $ENV{OAI_LIMIT} // 5, delimiter => ':', sampleIdentifier => 'oai:repo.example:1',
    metadata_formats => [
        { metadataPrefix => 'oai_dc', schema => 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd', metadataNamespace => 'http://www.openarchives.org/OAI/2.0/oai_dc/', template => "$FindBin::Bin/oai_dc.tt" },
        { metadataPrefix => 'epicur', schema => 'http://www.persistent-identifier.de/xepicur/version1.0/xepicur.xsd', metadataNamespace => 'urn:nbn:de:1111-2004033116', template => "$FindBin::Bin/epicur.tt" },
    ],
    sets => [
        { setSpec => 'theses', setName => 'Theses', cql => 'sets exact "theses"' },
        { setSpec => 'articles', setName => 'Articles', cql => 'sets exact "articles"' },
    ],
} };

oai_provider '/oai',
    deleted => sub { ($_[0]->{status} // '') eq 'deleted' },
    set_specs_for => sub { $_[0]->{sets} // [] };

dance;
